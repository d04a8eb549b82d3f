// Test support: run a piece of a test as an unprivileged user, to see the errors a user
// without permission sees (as root, mode 000 does not deny reads).
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <functional>
#include <string>

namespace odf_hash::test_support {

// The user and group "nobody" on Debian.
inline constexpr unsigned kNobody = 65534;

// Runs `body` in a forked child that first switches to user and group kNobody, and returns
// the string the body returned (its report, compared by the caller), or "setuid failed".
// Precondition: the caller is root (check geteuid() and skip otherwise) and single-threaded
// enough to fork (the child only runs `body` and exits). The child never returns into the
// test: it exits with _exit, so GoogleTest state is the parent's alone.
inline std::string run_as_nobody(const std::function<std::string()>& body) {
  int fds[2];
  if (::pipe(fds) != 0) return "pipe failed";
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return "fork failed";
  }
  if (pid == 0) {
    ::close(fds[0]);
    std::string report;
    if (::setgid(kNobody) != 0 || ::setuid(kNobody) != 0) {
      report = "setuid failed";
    } else {
      report = body();
    }
    const char* p = report.data();
    size_t left = report.size();
    while (left > 0) {
      const ssize_t n = ::write(fds[1], p, left);
      if (n <= 0) break;
      p += n;
      left -= static_cast<size_t>(n);
    }
    ::_exit(0);
  }
  ::close(fds[1]);
  std::string report;
  char buf[4096];
  ssize_t n;
  while ((n = ::read(fds[0], buf, sizeof buf)) > 0) report.append(buf, static_cast<size_t>(n));
  ::close(fds[0]);
  ::waitpid(pid, nullptr, 0);
  return report;
}

}  // namespace odf_hash::test_support
