#!/usr/bin/env bash
# Installs what the build and tests need from Debian's packages, only where something is missing.
set -euo pipefail
packages=(cmake ninja-build g++ poppler-utils qt6-base-dev qt6-base-dev-tools libqt6opengl6-dev qt6-svg-dev qt6-l10n-tools
  qt6-tools-dev-tools qt6-tools-dev libqcustomplot-dev nlohmann-json3-dev zlib1g-dev libtomlplusplus-dev libyaml-cpp-dev libxlsxwriter-dev pkgconf libbenchmark-dev
  libopenmpi-dev openmpi-bin xvfb xauth python3 python3-dev pybind11-dev fonts-dejavu-core fonts-wqy-microhei libgl1-mesa-dri)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  SUDO=sudo
else
  SUDO=
fi
echo "scripts/deps.sh: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
