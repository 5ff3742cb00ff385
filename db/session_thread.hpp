// A connection on a thread of its own, so that a statement waiting on a lock
// holds up only its session: the schedule runner (db/runner.hpp) posts each
// session's statements here and waits a short while for them; one that has
// not returned is blocked, and the runner goes on with the other sessions.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

#include "db/connection.hpp"

namespace iso::db {

class SessionThread {
 public:
  using Work = std::function<void(Connection&)>;

  explicit SessionThread(std::unique_ptr<Connection> connection);
  // Lets the work queued so far finish (each statement is bounded by the
  // statement timeout), then stops the thread and closes the connection.
  ~SessionThread();
  SessionThread(const SessionThread&) = delete;
  SessionThread& operator=(const SessionThread&) = delete;

  // Queues work; it runs after the work posted before it. Once a work item
  // has thrown, the rest are dropped and error() returns the exception.
  void post(Work w);
  // Waits until every posted work item has finished, or `timeout` passes:
  // true when idle. Everything the finished work wrote is visible to the
  // caller afterwards (the queue's mutex orders it).
  bool wait_idle(std::chrono::steady_clock::duration timeout);
  bool idle();
  std::exception_ptr error();

 private:
  void loop();

  std::unique_ptr<Connection> connection_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Work> queue_;
  bool running_ = false;  // a work item is executing
  bool stopping_ = false;
  std::exception_ptr error_;
  std::thread thread_;  // last: started once the rest exists
};

}  // namespace iso::db
