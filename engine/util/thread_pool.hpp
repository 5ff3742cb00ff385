// Independent problems on several threads (--jobs N): the levels of one
// check, the pairs of hierarchy and compare, the rows of anomalies. A
// TaskPool runs submitted tasks on its worker threads, first come first
// served; for_each_ordered runs n tasks and hands their results back in
// index order, so that a command prints exactly what a loop would.
//
// Contract:
// - With jobs <= 1 no thread is made: a task runs on the calling thread when
//   its future is waited for (std::launch::deferred), so --jobs 1 is the
//   loop it replaces, step for step, and a task whose result nobody asks
//   for never runs.
// - A task runs under the deadline of the thread that submitted it
//   (engine/util/budget.hpp: the deadline is per thread), measured from the
//   submission, so a task that waited in the queue gets no extra time; it
//   runs without that thread's heartbeat (each decision sets its own).
// - A task's exception reaches whoever waits on its future.
// - Destroying the pool drops the tasks not yet started and waits for the
//   running ones.
// - What tasks share must be safe to share: docs/design.md lists what the
//   engine shares between decisions (the spec library, read-only after
//   loading; the history, read-only; the synthesizer's caches, behind a
//   lock) and what each decision owns (its circuit, translator, solver,
//   deadline and heartbeat).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <future>
#include <mutex>
#include <thread>
#include <vector>

namespace iso {

// --jobs's default: the number of hardware threads, at least 1.
std::size_t default_jobs();

class TaskPool {
 public:
  // `jobs` worker threads; none when jobs <= 1 (deferred tasks).
  explicit TaskPool(std::size_t jobs);
  ~TaskPool();
  TaskPool(const TaskPool&) = delete;
  TaskPool& operator=(const TaskPool&) = delete;

  // Queues `task`; its future is ready when it has run (or holds what it threw).
  std::future<void> submit(std::function<void()> task);

  std::size_t threads() const { return workers_.size(); }

 private:
  void work();

  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::packaged_task<void()>> queue_;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

// Runs task(i) for every i < n on up to `jobs` threads, and done(i) on the
// calling thread in index order, each as soon as tasks 0..i have finished.
// When task(i) or done(i) throws, the tasks not started yet are dropped, the
// running ones finish, and the exception is rethrown: the one a loop would
// have thrown (done(j) has run for every j < i, and no task j < i threw).
void for_each_ordered(std::size_t n, std::size_t jobs, const std::function<void(std::size_t)>& task,
                      const std::function<void(std::size_t)>& done = {});

}  // namespace iso
