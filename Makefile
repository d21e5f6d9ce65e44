# The two commands: `make run` and `make test`. Everything else is a helper.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
PG_URL ?= postgres://postgres@127.0.0.1:5432/huapai

.PHONY: run test lint format system-deps demo bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.runtime: requirements.txt | $(BIN)/python
	$(BIN)/pip install -q -r requirements.txt
	touch $@

$(VENV)/.dev: requirements.txt requirements-dev.txt $(VENV)/.runtime
	$(BIN)/pip install -q -r requirements-dev.txt
	touch $@

run: $(VENV)/.runtime
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_demo
	@echo ""
	@echo "  华牌赛事计分 — http://127.0.0.1:$(PORT)/"
	@echo "  demo logins (organiser / referees):"
	@$(BIN)/python manage.py demo_logins
	@echo ""
	$(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

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

test: $(VENV)/.dev system-deps lint
	$(BIN)/python manage.py makemigrations --check --dry-run
	$(BIN)/python -m pytest
	@if $(BIN)/python .ci/pg_answers.py "$${DATABASE_URL:-$(PG_URL)}"; then \
		echo "== PostgreSQL: $${DATABASE_URL:-$(PG_URL)}"; \
		DATABASE_URL="$${DATABASE_URL:-$(PG_URL)}" $(BIN)/python -m pytest; \
	else \
		echo "== PostgreSQL does not answer: skipped the PostgreSQL run"; \
	fi

demo: $(VENV)/.runtime
	$(BIN)/python fixtures/make_demo.py

bench: $(VENV)/.dev
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) var .pytest_cache
