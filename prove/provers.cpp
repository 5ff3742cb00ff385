// Child processes for provers.hpp: fork and exec with the output in a
// temporary file, polled until it exits or its time is up.
#include "prove/provers.hpp"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <thread>

#include <fmt/format.h>

namespace iso::prove {

namespace {

std::string with_limit(const std::string& flag, double seconds) {
  std::string out = flag;
  const auto at = out.find("{ms}");
  if (at != std::string::npos) out.replace(at, 4, std::to_string(static_cast<long>(seconds * 1000)));
  const auto at_s = out.find("{s}");
  if (at_s != std::string::npos) out.replace(at_s, 3, std::to_string(static_cast<long>(seconds + 0.999)));
  return out;
}

// The program's path, searched in PATH; empty when not found.
std::string find_program(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  std::size_t from = 0;
  while (from <= dirs.size()) {
    const std::size_t to = std::min(dirs.find(':', from), dirs.size());
    std::filesystem::path p = std::filesystem::path(dirs.substr(from, to - from)) / name;
    if (::access(p.c_str(), X_OK) == 0) return p.string();
    from = to + 1;
  }
  return "";
}

// What the prover printed, at most 16 MB of it.
std::string output_of(std::FILE* f) {
  std::rewind(f);
  std::string text;
  char buf[65536];
  std::size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0 && text.size() < (std::size_t{16} << 20)) text.append(buf, n);
  return text;
}

ProverRun run_configuration(const Prover& p, const std::vector<std::string>& flags, const std::string& file,
                            double seconds);

}  // namespace

const std::vector<Prover>& provers() {
  static const std::vector<Prover> list = {
      // First a short look for a finite model of the negation, which
      // answers "sat" within a second where a small history refutes the
      // claim (no longer limit is then spent on it), printing the model
      // (countermodel.hpp reads it), and "unsat" on most true goals as
      // fast; then with definitions (smt_problem.hpp) expanded as macros,
      // the formulas inlined, which cvc5 instantiates best; then as written.
      {"cvc5",
       "cvc5",
       {{{"--finite-model-find", "--dump-models", "--tlimit={ms}"}, 1.0},
        {{"--macros-quant", "--macros-quant-mode=all", "--tlimit={ms}"}},
        {{"--tlimit={ms}"}}}},
      {"z3", "z3", {{{"-T:{s}"}}}},
  };
  return list;
}

ProverRun run_prover(const Prover& p, const std::string& file, double seconds) {
  ProverRun run{p.name, "", 0, ""};
  for (const auto& c : p.configurations) {
    ProverRun one = run_configuration(p, c.flags, file, std::min(seconds, c.cap));
    run.seconds += one.seconds;
    run.answer = one.answer;
    run.model = std::move(one.model);
    // A model of the negation settles it as much as unsat does: another
    // configuration cannot prove what has a model.
    if (run.answer == "unsat" || run.answer == "sat" || run.answer.starts_with("error")) break;
  }
  return run;
}

namespace {

// One run of one configuration of p.
ProverRun run_configuration(const Prover& p, const std::vector<std::string>& flags, const std::string& file,
                            double seconds) {
  ProverRun run{p.name, "", 0, ""};
  const std::string program = find_program(p.program);
  if (program.empty()) {
    run.answer = fmt::format("error: {} is not installed (Debian package {})", p.program, p.program);
    return run;
  }
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> out(std::tmpfile(), &std::fclose);
  if (!out) {
    run.answer = "error: no temporary file for the prover's answer";
    return run;
  }
  // Everything the child needs is made before fork: after it, only
  // async-signal-safe calls.
  std::vector<std::string> words{program};
  for (const auto& f : flags) words.push_back(with_limit(f, seconds));
  words.push_back(file);
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  const int out_fd = ::fileno(out.get());
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid < 0) {
    run.answer = "error: cannot start a process";
    return run;
  }
  if (pid == 0) {
    struct rlimit mem {};
    mem.rlim_cur = mem.rlim_max = rlim_t{4} << 30;
    ::setrlimit(RLIMIT_AS, &mem);
    ::dup2(out_fd, 1);
    const int null = ::open("/dev/null", O_WRONLY);
    if (null >= 0) ::dup2(null, 2);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  // The prover's own limit first; ours a little later, in case it overruns.
  const auto deadline = start + std::chrono::duration<double>(seconds + 2);
  int status = 0;
  bool killed = false;
  for (;;) {
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) break;
    if (std::chrono::steady_clock::now() > deadline && !killed) {
      ::kill(pid, SIGKILL);
      killed = true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const std::string text = output_of(out.get());
  const std::string said = text.substr(0, text.find_first_of(" \r\n"));
  if (said == "sat" && text.size() > said.size()) run.model = text;
  if (said == "unsat" || said == "sat" || said == "unknown") run.answer = said;
  else if (killed || said == "timeout" || run.seconds >= seconds) run.answer = "timeout";
  else if (WIFEXITED(status) && WEXITSTATUS(status) == 127) run.answer = fmt::format("error: cannot run {}", program);
  else run.answer = fmt::format("error: {} gave no answer{}", p.name, said.empty() ? "" : " (" + said + ")");
  return run;
}

}  // namespace

}  // namespace iso::prove
