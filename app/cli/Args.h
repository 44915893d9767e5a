// Command-line argument parsing shared by the planscope-cli verbs.
#pragma once

#include <initializer_list>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace planscope::cli {

struct Args {
    std::vector<std::string> positional;
    std::map<std::string, std::string> options;
    std::vector<std::string> flags;
    bool has(const std::string& f) const
    {
        for (const auto& x : flags)
            if (x == f) return true;
        return options.count(f) > 0;
    }
};

inline Args parseArgs(const std::vector<std::string>& args, std::size_t from, std::initializer_list<const char*> valued)
{
    Args a;
    for (std::size_t i = from; i < args.size(); ++i) {
        const std::string& s = args[i];
        bool isValued = false;
        for (const char* v : valued)
            if (s == v) isValued = true;
        if (isValued && i + 1 < args.size())
            a.options[s] = args[++i];
        else if (s.rfind("--", 0) == 0 && s.find('=') != std::string::npos)
            a.options[s.substr(0, s.find('='))] = s.substr(s.find('=') + 1);
        else if (s.rfind("--", 0) == 0)
            a.flags.push_back(s);
        else
            a.positional.push_back(s);
    }
    return a;
}

inline std::optional<double> number(const Args& a, const std::string& key, std::ostream& err)
{
    auto it = a.options.find(key);
    if (it == a.options.end()) return 0.0;
    try {
        std::size_t used = 0;
        const double d = std::stod(it->second, &used);
        if (used != it->second.size() || d < 0) throw std::invalid_argument("x");
        return d;
    } catch (...) {
        err << "planscope-cli: " << key << " needs a non-negative number, got \"" << it->second << "\"\n";
        return std::nullopt;
    }
}

} // namespace planscope::cli
