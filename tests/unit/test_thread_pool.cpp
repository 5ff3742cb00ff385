// The task pool behind --jobs (engine/util/thread_pool.hpp): every task run
// once, results handed back in order, a loop's exception, the caller's
// deadline in every task, no thread with one job.
#include <atomic>
#include <chrono>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include <doctest/doctest.h>

#include "engine/util/budget.hpp"
#include "engine/util/thread_pool.hpp"

using namespace iso;

TEST_CASE("thread pool: every task once, done in index order, whatever the jobs") {
  for (std::size_t jobs : {1u, 2u, 3u, 8u}) {
    constexpr std::size_t n = 40;
    std::vector<std::atomic<int>> runs(n);
    std::vector<std::size_t> order;
    for_each_ordered(
        n, jobs, [&](std::size_t i) { ++runs[i]; },
        [&](std::size_t i) {
          CHECK(runs[i] == 1);
          order.push_back(i);
        });
    for (std::size_t i = 0; i < n; ++i) CHECK(runs[i] == 1);
    REQUIRE(order.size() == n);
    for (std::size_t i = 0; i < n; ++i) CHECK(order[i] == i);
  }
}

TEST_CASE("thread pool: one job is the loop, on the calling thread, task and done alternating") {
  std::vector<std::string> trace;
  const auto caller = std::this_thread::get_id();
  for_each_ordered(
      3, 1,
      [&](std::size_t i) {
        CHECK(std::this_thread::get_id() == caller);
        trace.push_back("t" + std::to_string(i));
      },
      [&](std::size_t i) { trace.push_back("d" + std::to_string(i)); });
  CHECK(trace == std::vector<std::string>{"t0", "d0", "t1", "d1", "t2", "d2"});
  TaskPool pool(1);
  CHECK(pool.threads() == 0);
}

TEST_CASE("thread pool: the exception a loop would throw, after done() of the tasks before it") {
  for (std::size_t jobs : {1u, 4u}) {
    std::vector<std::size_t> done;
    auto run = [&] {
      for_each_ordered(
          20, jobs,
          [](std::size_t i) {
            if (i == 5) throw std::runtime_error("five");
            if (i == 9) throw std::runtime_error("nine");
          },
          [&](std::size_t i) { done.push_back(i); });
    };
    CHECK_THROWS_WITH_AS(run(), "five", std::runtime_error);
    CHECK(done == std::vector<std::size_t>{0, 1, 2, 3, 4});
  }
}

TEST_CASE("thread pool: tasks run under the caller's deadline, counted from the submission") {
  {
    budget::ScopedDeadline none(0);
    std::atomic<bool> bounded{false};
    for_each_ordered(2, 2, [&](std::size_t) { bounded = bounded || budget::remaining_seconds() < 1e9; });
    CHECK(!bounded);  // no deadline: none in the tasks either
  }
  budget::ScopedDeadline deadline(0.2);
  std::mutex m;
  std::vector<double> left;
  std::atomic<int> expired{0};
  for_each_ordered(4, 2, [&](std::size_t i) {
    {
      std::lock_guard lock(m);
      left.push_back(budget::remaining_seconds());
    }
    if (i < 2) std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the others wait in the queue
    if (budget::expired()) ++expired;
  });
  REQUIRE(left.size() == 4);
  for (double l : left) CHECK(l <= 0.2);
  CHECK(expired == 4);  // the queued tasks got no extra time
  CHECK_THROWS_AS(for_each_ordered(2, 2, [](std::size_t) { budget::check(); }), TimeoutError);
}
