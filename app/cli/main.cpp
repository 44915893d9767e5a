#include "Commands.h"

#include <csignal>
#include <iostream>

int main(int argc, char** argv)
{
    // A write past the file size limit (ulimit -f, setrlimit(2) RLIMIT_FSIZE) fails with EFBIG and is reported, the
    // old file kept, instead of SIGXFSZ ending the process (signal(7)).
    std::signal(SIGXFSZ, SIG_IGN);
    std::vector<std::string> args(argv + 1, argv + argc);
    return planscope::cli::run(args, std::cout, std::cerr);
}
