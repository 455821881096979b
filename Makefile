# Two entry points after a clone: `make demo` and `make test`. Each bootstraps what it needs,
# idempotently: npm and Debian packages, the two service binaries, the local stack, migrations.
SHELL := /usr/bin/env bash
FORGE := ./bin/forge

.PHONY: deps bin prereqs up down test typecheck lint demo

deps:
	scripts/deps.sh

bin:
	scripts/build-binaries.sh

# Both at once on a fresh machine: the installs wait on the network and the disk, the Go builds on
# the cores (minutes each; side by side they overlap). Fails if either fails.
prereqs:
	scripts/deps.sh & deps=$$!; scripts/build-binaries.sh; bin=$$?; wait $$deps && exit $$bin

up: prereqs
	$(FORGE) dev up

down:
	$(FORGE) dev down

typecheck: deps
	npx tsc --noEmit

lint: deps
	npx biome check .

test: up
	npx tsc --noEmit
	npx biome check .
	node tests/run.mjs all

demo: up
	$(FORGE) demo
