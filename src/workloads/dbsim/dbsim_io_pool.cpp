#include "workloads/dbsim/dbsim_io_pool.h"

#include <algorithm>
#include <utility>

#include "os/thread.h"

namespace loadcell {

DbsimIoPool::DbsimIoPool(int depth, const std::vector<int>& helper_cpus,
                         const std::string& cpus_key)
    : depth_(std::max(1, depth)) {
  helpers_.reserve(static_cast<size_t>(depth_ - 1));
  for (int i = 1; i < depth_; ++i) {
    helpers_.emplace_back([this, cpus = helper_cpus, key = cpus_key] { Help(cpus, key); });
  }
  // Every helper on its CPUs before the first batch.
  std::unique_lock lock(mutex_);
  done_.wait(lock, [this] { return started_ == helpers_.size(); });
}

DbsimIoPool::~DbsimIoPool() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  work_.notify_all();
  for (auto& helper : helpers_) helper.join();
}

void DbsimIoPool::RunTasks() {
  std::unique_lock lock(mutex_);
  while (task_ != nullptr && next_ < count_) {
    const size_t i = next_++;
    const auto* task = task_;
    lock.unlock();
    Status st = (*task)(i);
    lock.lock();
    results_[i] = std::move(st);
    if (++ended_ == count_) done_.notify_all();
  }
}

void DbsimIoPool::Help(const std::vector<int>& cpus, const std::string& cpus_key) {
  Status confined = cpus.empty() ? Status::Ok() : SetCurrentThreadCpus(cpus);
  std::unique_lock lock(mutex_);
  if (!confined.ok() && start_error_.ok()) {
    start_error_ = Status(confined.code(), cpus_key + ": " + confined.message(), confined.err());
  }
  ++started_;
  done_.notify_all();
  for (;;) {
    work_.wait(lock, [this] { return stop_ || (task_ != nullptr && next_ < count_); });
    if (stop_) return;
    lock.unlock();
    RunTasks();
    lock.lock();
  }
}

Status DbsimIoPool::Run(size_t count, const std::function<Status(size_t)>& task) {
  if (count == 0) return Status::Ok();
  {
    std::lock_guard lock(mutex_);
    if (!start_error_.ok()) return start_error_;
  }
  if (helpers_.empty() || count == 1) {
    Status first = Status::Ok();
    for (size_t i = 0; i < count; ++i) {
      Status st = task(i);
      if (first.ok() && !st.ok()) first = std::move(st);
    }
    return first;
  }
  {
    std::lock_guard lock(mutex_);
    task_ = &task;
    count_ = count;
    next_ = 0;
    ended_ = 0;
    results_.assign(count, Status::Ok());
  }
  work_.notify_all();
  RunTasks();
  std::unique_lock lock(mutex_);
  done_.wait(lock, [this] { return ended_ == count_; });
  task_ = nullptr;
  for (Status& st : results_) {
    if (!st.ok()) return std::move(st);
  }
  return Status::Ok();
}

}  // namespace loadcell
