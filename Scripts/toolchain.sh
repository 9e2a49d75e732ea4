# Sourced by the scripts: finds the Swift toolchain on PATH, or in SWIFT_TOOLCHAIN_BIN (a folder holding the
# `swift` command, such as ~/swift-6.3/usr/bin) when it is not on PATH.
if [ -n "${SWIFT_TOOLCHAIN_BIN:-}" ]; then
    export PATH="$SWIFT_TOOLCHAIN_BIN:$PATH"
fi
if ! command -v swift >/dev/null 2>&1; then
    echo "error: no Swift toolchain found: install Swift 6 (https://swift.org/install) and put it on PATH," >&2
    echo "       or set SWIFT_TOOLCHAIN_BIN to the folder that holds the swift command" >&2
    exit 1
fi
