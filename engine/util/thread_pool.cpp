// The task pool of thread_pool.hpp: worker threads over one queue, each task
// run under its submitter's deadline.
#include "engine/util/thread_pool.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <utility>

#include "engine/util/budget.hpp"

namespace iso {

std::size_t default_jobs() {
  const unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : n;
}

namespace {

// `task` wrapped to run under the deadline of the thread calling this,
// fixed now: a time point, not a number of seconds, so that the wait in the
// queue counts.
std::function<void()> under_callers_deadline(std::function<void()> task) {
  const double left = budget::remaining_seconds();
  if (!std::isfinite(left)) return task;
  const auto deadline = budget::Clock::now() + std::chrono::duration_cast<budget::Clock::duration>(
                                                   std::chrono::duration<double>(left));
  return [deadline, task = std::move(task)] {
    const double seconds = std::chrono::duration<double>(deadline - budget::Clock::now()).count();
    // Already passed: the smallest budget there is, so that the task's first
    // poll times out (ScopedDeadline ignores a budget <= 0).
    budget::ScopedDeadline scoped(seconds > 0 ? seconds : 1e-9);
    task();
  };
}

}  // namespace

TaskPool::TaskPool(std::size_t jobs) {
  if (jobs <= 1) return;
  workers_.reserve(jobs);
  for (std::size_t i = 0; i < jobs; ++i) workers_.emplace_back([this] { work(); });
}

TaskPool::~TaskPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    queue_.clear();  // their futures report a broken promise, to nobody
  }
  ready_.notify_all();
  for (auto& w : workers_) w.join();
}

std::future<void> TaskPool::submit(std::function<void()> task) {
  if (workers_.empty()) return std::async(std::launch::deferred, std::move(task));
  std::packaged_task<void()> job(under_callers_deadline(std::move(task)));
  std::future<void> result = job.get_future();
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(std::move(job));
  }
  ready_.notify_one();
  return result;
}

void TaskPool::work() {
  for (;;) {
    std::packaged_task<void()> job;
    {
      std::unique_lock lock(mutex_);
      ready_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping
      job = std::move(queue_.front());
      queue_.pop_front();
    }
    job();  // an exception is kept in the job's future
  }
}

void for_each_ordered(std::size_t n, std::size_t jobs, const std::function<void(std::size_t)>& task,
                      const std::function<void(std::size_t)>& done) {
  TaskPool pool(std::min(jobs, n));
  std::vector<std::future<void>> results;
  results.reserve(n);
  for (std::size_t i = 0; i < n; ++i) results.push_back(pool.submit([&task, i] { task(i); }));
  for (std::size_t i = 0; i < n; ++i) {
    results[i].get();  // rethrows task(i)'s exception; the pool's destructor drops the rest
    if (done) done(i);
  }
}

}  // namespace iso
