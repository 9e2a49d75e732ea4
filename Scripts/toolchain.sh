# Sourced by the scripts: puts the Swift toolchain on PATH when it lives in /opt/swift and is not there yet.
if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
    export PATH="/opt/swift/usr/bin:$PATH"
fi
if ! command -v swift >/dev/null 2>&1; then
    echo "error: no Swift toolchain found; install Swift 6 (https://swift.org/install) and put it on PATH" >&2
    exit 1
fi
