#!/bin/sh
# The image's entry point: every `paygate` command, on the compiled service.
exec node /app/packages/server/dist/main.js "$@"
