// A connection on a thread of its own (session_thread.hpp).
#include "db/session_thread.hpp"

namespace iso::db {

SessionThread::SessionThread(std::unique_ptr<Connection> connection)
    : connection_(std::move(connection)), thread_([this] { loop(); }) {}

SessionThread::~SessionThread() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void SessionThread::post(Work w) {
  {
    std::lock_guard lock(mutex_);
    if (error_) return;
    queue_.push_back(std::move(w));
  }
  changed_.notify_all();
}

bool SessionThread::wait_idle(std::chrono::steady_clock::duration timeout) {
  std::unique_lock lock(mutex_);
  return changed_.wait_for(lock, timeout, [this] { return queue_.empty() && !running_; });
}

bool SessionThread::idle() {
  std::lock_guard lock(mutex_);
  return queue_.empty() && !running_;
}

std::exception_ptr SessionThread::error() {
  std::lock_guard lock(mutex_);
  return error_;
}

void SessionThread::loop() {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopping, and nothing left to do
    Work w = std::move(queue_.front());
    queue_.pop_front();
    running_ = true;
    lock.unlock();
    std::exception_ptr failed;
    try {
      w(*connection_);
    } catch (...) {
      failed = std::current_exception();
    }
    lock.lock();
    running_ = false;
    if (failed && !error_) {
      error_ = failed;
      queue_.clear();
    }
    changed_.notify_all();
  }
}

}  // namespace iso::db
