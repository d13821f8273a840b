#!/usr/bin/env bash
# Staging mock: Prism serving openapi.yaml (see mocks/README.md).
# Prism reads OpenAPI 3.0 exclusive bounds (`exclusiveMaximum: true`) itself, so it serves the
# contract as it is; test/http/mock.test.ts starts it the same way and checks its answers.
set -euo pipefail
cd "$(dirname "$0")/.."
prism=node_modules/.bin/prism
if [ ! -x "$prism" ]; then
  echo "mocks/start.sh: $prism is missing: run npm install first" >&2
  exit 1
fi
exec "$prism" mock openapi.yaml --cors=false --host "${MOCK_HOST:-127.0.0.1}" --port "${MOCK_PORT:-4010}" --errors
