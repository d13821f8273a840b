#!/usr/bin/env bash
# Staging mock: Prism serving openapi.yaml (see mocks/README.md).
set -euo pipefail
cd "$(dirname "$0")/.."
exec npx prism mock openapi.yaml --host "${MOCK_HOST:-127.0.0.1}" --port "${MOCK_PORT:-4010}" --errors
