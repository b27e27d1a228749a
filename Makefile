# Heart to Heart: `make run` serves the app, `make test` runs every test. Both set themselves up.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000
# CI runs the suite a second time on the scaled set-up this machine provides.
PG_URL ?= postgres://postgres@127.0.0.1:5432/h2h
REDIS_URL ?= redis://127.0.0.1:6379/0

.PHONY: run test test-sqlite test-scaled test-js faults-short lint chromium nodejs nginx gettext messages bench reliability clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[test]"
	touch $(STAMP)

# The development set-up: DEBUG on, public development keys (the settings refuse them otherwise).
run: export H2H_DEBUG = 1
run: $(STAMP) messages
	$(PY) manage.py migrate --noinput
	$(VENV)/bin/daphne --bind $(HOST) --port $(PORT) --websocket-max-message-size 4096 h2h_site.asgi:application

# Debian's Chromium for the browser tests (Playwright cannot download its own browser here).
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else echo "chromium is missing: browser tests will be skipped (install Debian's chromium)"; fi; }

# Debian's nginx (and openssl, for its test certificate) for the deployment kit's test, which runs
# an nginx of its own on loopback: the package's own service and default site play no part.
nginx:
	@{ command -v nginx || [ -x /usr/sbin/nginx ]; } >/dev/null 2>&1 && command -v openssl >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx openssl >/dev/null; \
	  else echo "nginx is missing: the deployment kit's test will be skipped (install Debian's nginx)"; fi; }

# Debian's gettext compiles the translations (the .mo files are built, not kept in git).
gettext:
	@command -v msgfmt >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gettext >/dev/null; \
	  else echo "msgfmt is missing: install Debian's gettext"; exit 1; fi; }

messages: export H2H_DEBUG = 1
messages: $(STAMP) gettext
	$(PY) manage.py compilemessages --ignore=.venv >/dev/null

# Debian's Node.js and npm for the browser modules' unit tests (npm installs their one package,
# linkedom, a small DOM: tests/js/package.json).
nodejs:
	@{ command -v node && command -v npm; } >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null; \
	  else echo "node or npm is missing: the JavaScript unit tests will be skipped (install Debian's nodejs and npm)"; fi; }

test: $(STAMP) chromium nodejs nginx messages
	$(MAKE) --no-print-directory lint
	$(MAKE) --no-print-directory test-js
	$(MAKE) --no-print-directory test-sqlite
	@if [ -n "$$CI" ]; then $(MAKE) --no-print-directory test-scaled; fi

test-sqlite:
	$(PY) -m pytest -q --durations=15

# The browser modules without a browser: the pure ones (state, layout, transitions, socket, race
# room), and render, input, frames and windows in linkedom's small DOM (installed from the lock).
test-js:
	@if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then \
	  npm ci --prefix tests/js --no-audit --no-fund --loglevel=error && node --test tests/js/*.test.js; fi

# Every test folder that touches the database or the channel layer again on PostgreSQL + Redis,
# and the system tests needing them (the deployment kit behind nginx among them).
SCALED_TESTS := $(wildcard tests/storage tests/selectors tests/services tests/runtime \
    tests/sockets tests/web tests/system)
test-scaled:
	H2H_DATABASE_URL=$(PG_URL) H2H_REDIS_URL=$(REDIS_URL) $(PY) -m pytest -q $(SCALED_TESTS) \
	    -m "not e2e and (not slow or postgres or redis)"
	$(MAKE) --no-print-directory faults-short

# The fault suite, short (about 2.5 minutes): 10 players through the kit's nginx and two daphnes
# while a process is killed, Redis stops, PostgreSQL restarts, pauses and refuses writes, and 50
# sockets reconnect at once. It starts its own PostgreSQL, Redis and nginx on free ports, and
# fails on an acknowledged move lost, a player locked out or a close with 1011.
faults-short: $(STAMP) nginx
	$(PY) -m bench.faults --short

# The long reliability runs behind docs/reliability.md (about 20 minutes; not part of `make test`).
# The PostgreSQL ones use a database of their own (h2h_rel) and Redis database 5.
reliability: $(STAMP) nginx
	$(PY) -m bench.crash --trials 100 --players 4
	$(PY) -m bench.hostile --frames 10000
	$(PY) -m bench.concurrency sqlite --seconds 60
	$(PY) -m bench.concurrency daily --players 200
	$(PY) -m bench.concurrency tabs --seconds 10
	$(PY) -m bench.soak --clients 300 --seconds 600
	$(PY) -m bench.reconnect_storm --runs 5 --redis-url redis://127.0.0.1:6379/5 \
	    --database-url postgres://postgres@127.0.0.1:5432/h2h_rel
	$(PY) -m bench.faults

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

clean:
	rm -rf $(VENV) staticfiles
