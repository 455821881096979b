# Two entry points after a clone: `make demo` and `make test`. Each bootstraps what it needs,
# idempotently: npm and Debian packages, the two service binaries, the local stack, migrations.
SHELL := /usr/bin/env bash
FORGE := ./bin/forge

.PHONY: deps bin up down test typecheck lint demo

deps:
	scripts/deps.sh

bin:
	scripts/build-binaries.sh

up: deps bin
	$(FORGE) dev up

down:
	$(FORGE) dev down

typecheck: deps
	npx tsc --noEmit

lint: deps
	npx biome check .

test: deps bin up
	npx tsc --noEmit
	npx biome check .
	node tests/run.mjs all

demo: deps bin up
	$(FORGE) demo
