# The two commands: `make run` and `make test`. Everything else is a helper.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
# A short interval, so that the demo shows its backups being taken and checked.
DEMO_BACKUP_MINUTES ?= 2
PG_URL ?= postgres://postgres@127.0.0.1:5432/huapai

.PHONY: run test lint format system-deps demo bench clean lock

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Only the lock files are installed: every package pinned, every file checked against its sha256.
# requirements.txt: the runtime; requirements-dev.lock: the runtime and the tests' tools;
# requirements-uv.lock: uv, which installs the other two (pip took ~11 s for the dev lock on a fresh
# clone, uv ~3 s with its bytecode; issue 19's six minutes). pip installs only uv, from its lock.
UV := $(BIN)/uv
UV_INSTALL := $(UV) pip install -q --require-hashes --compile-bytecode --python $(BIN)/python
$(UV): requirements-uv.lock | $(BIN)/python
	$(BIN)/pip install -q --require-hashes -r requirements-uv.lock
	touch $@

$(VENV)/.runtime: requirements.txt | $(UV)
	$(UV_INSTALL) -r requirements.txt
	touch $@

$(VENV)/.dev: requirements-dev.lock | $(UV)
	$(UV_INSTALL) -r requirements-dev.lock
	touch $@

# After editing requirements.in, requirements-dev.in or requirements-uv.in, the project's uv runs
#   uv pip compile --generate-hashes --python-version 3.11 --python-platform x86_64-unknown-linux-gnu \
#     requirements.in -o requirements.txt    (and the same for the -dev and -uv files)
# keeping the versions already in the locks where it can; delete a lock first to re-resolve it afresh.
# requirements-uv.lock holds the wheels of every platform for uv's pinned version.
LOCK_FLAGS := --generate-hashes --python-version 3.11 --python-platform x86_64-unknown-linux-gnu
lock: | $(UV)
	$(UV) pip compile -q $(LOCK_FLAGS) requirements.in -o requirements.txt
	$(UV) pip compile -q $(LOCK_FLAGS) requirements-dev.in -o requirements-dev.lock
	$(UV) pip compile -q $(LOCK_FLAGS) requirements-uv.in -o requirements-uv.lock

# runserver has no warmer of its own: the warmer's process beside it takes the backups (and warms
# its own cache, which costs the demo little). It ends with the server.
run: $(VENV)/.runtime
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_demo
	@echo ""
	@echo "  华牌赛事计分 — http://127.0.0.1:$(PORT)/"
	@echo "  demo logins (organiser / referees):"
	@$(BIN)/python manage.py demo_logins
	@echo "  backups every $(DEMO_BACKUP_MINUTES) min while a round is in play: var/backups (manage.py backups)"
	@echo ""
	HUAPAI_BACKUP_MINUTES=$(DEMO_BACKUP_MINUTES) $(BIN)/python manage.py warm_public & warmer=$$!; \
	trap 'kill $$warmer 2>/dev/null' EXIT INT TERM; \
	HUAPAI_BACKUP_MINUTES=$(DEMO_BACKUP_MINUTES) $(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

# Debian's chromium (driven by Playwright, never Playwright's own browsers)
# and a CJK TrueType font for the PDFs.
system-deps:
	@bash .ci/system-deps

lint: $(VENV)/.dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(VENV)/.dev
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# Two workers, each test sent to the first free one, in collection order (the scheduler is
# tests/conftest.py's pytest_xdist_make_scheduler; docs/performance.md, the test suite).
PYTEST_XDIST := -n 2 --dist loadgroup --no-loadscope-reorder

# Bytecode is written even where the environment says not to (PYTHONDONTWRITEBYTECODE=1 on the CI
# machines): each worker of each pass, and each server a test starts, would otherwise compile the
# project and re-write every test module's assertions afresh (~5 s a process).
unexport PYTHONDONTWRITEBYTECODE

# The whole suite on SQLite; then, when PostgreSQL answers, every test that reaches the database
# on PostgreSQL (a test with no database, refused one by pytest-django, runs alike on both:
# tests/conftest.py, --database-tests-only), its browser tests in Debian's headless shell of the
# same Chromium (tests/conftest.py, CHROMIUM).
test: $(VENV)/.dev system-deps lint
	$(BIN)/python manage.py makemigrations --check --dry-run
	HYPOTHESIS_PROFILE=ci $(BIN)/python -m pytest $(PYTEST_XDIST)
	@if $(BIN)/python .ci/pg_answers.py "$${DATABASE_URL:-$(PG_URL)}"; then \
		echo "== PostgreSQL: $${DATABASE_URL:-$(PG_URL)}"; \
		DATABASE_URL="$${DATABASE_URL:-$(PG_URL)}" HUAPAI_CHROMIUM=/usr/bin/chromium-headless-shell HYPOTHESIS_PROFILE=ci $(BIN)/python -m pytest $(PYTEST_XDIST) --database-tests-only; \
	else \
		echo "== PostgreSQL does not answer: skipped the PostgreSQL run"; \
	fi

demo: $(VENV)/.runtime
	$(BIN)/python fixtures/make_demo.py

bench: $(VENV)/.dev
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) var .pytest_cache
