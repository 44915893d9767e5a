// Units inside core: bytes (int64), seconds, FLOPs. These helpers convert only for display and say which
// unit they produce: GB = 1e9 bytes, GiB = 2^30 bytes (docs/MODEL.md section 8).
#pragma once

#include <cstdint>
#include <string>

namespace planscope::units {

inline constexpr double kGB = 1e9;
inline constexpr double kGiB = 1073741824.0;
inline constexpr double kMiB = 1048576.0;
inline constexpr double kSecondsPerDay = 86400.0;

constexpr double toGiB(double bytes) { return bytes / kGiB; }
constexpr double toGB(double bytes) { return bytes / kGB; }
// Network figures quoted in bits per second ("IB 200" = 200 Gb/s) to bytes per second.
constexpr double gigabitsToBytesPerSecond(double gbit) { return gbit * 1e9 / 8.0; }
// "NVLink 600 GB/s" counts both directions; the model uses one direction.
constexpr double bidirectionalToPerDirection(double bytesPerSecond) { return bytesPerSecond / 2.0; }

std::string formatBytes(double bytes);        // "12.34 GiB"
std::string formatSeconds(double seconds);    // "1.23 s", "456 ms", "12.3 us"
std::string formatSignedSeconds(double seconds); // "+1.23 s", "−456 ms" (a difference; U+2212 minus)
std::string formatFlops(double flops);        // "3.14 PFLOP"
std::string formatNumber(double value);       // compact, e.g. "1.75e+11" or "0.1795"
std::string formatCount(double value);        // "175.0 B", "12.3 M"

} // namespace planscope::units
