# forge: `make demo` and `make test` each work on a fresh clone; both install and build first.
SHELL := /bin/bash
.DEFAULT_GOAL := build
TSX := node --import tsx
SOURCES := $(shell find bin lib commands -name '*.ts' 2>/dev/null) package.json scripts/build.mjs

.PHONY: build deps typecheck lint format test test-fast test-agents demo bench man completions docs hints install clean

node_modules/.deps-stamp: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	@touch $@

deps: node_modules/.deps-stamp

dist/forge.js: node_modules/.deps-stamp $(SOURCES)
	node scripts/build.mjs

build: dist/forge.js

# Incremental: a second run checks what changed (3 s instead of 12); npm ci drops the record with node_modules.
typecheck: deps
	node_modules/.bin/tsc -p . --incremental --tsBuildInfoFile node_modules/.cache/forge.tsbuildinfo

# Biome: the formatter's layout and the linter's rules (biome.json says which are off, and why in
# ARCHITECTURE.md's style notes); `make format` applies both.
lint: deps
	node_modules/.bin/biome check

format: deps
	node_modules/.bin/biome check --write

# `make test` is everything CI runs; `make test-fast` the unit tests (test/lib/, test/bin/), without
# coverage. TESTFLAGS goes to the runner: make test TESTFLAGS='-j 1 patch' (scripts/test.ts --help).
test: build typecheck lint
	$(TSX) scripts/test.ts $(TESTFLAGS)

test-fast: deps
	$(TSX) scripts/test.ts --fast --no-coverage $(TESTFLAGS)

# forge's plan gate inside the real coding agents, each installed from npm at a pinned version
# (scripts/agents/agents.ts) into node_modules/.cache/forge-agents/: not part of `make test`.
# AGENTS picks some: make test-agents AGENTS='gemini codex'.
test-agents: build
	$(TSX) scripts/test-agents.ts $(AGENTS)

demo: build
	bash examples/demo.sh

bench: build
	$(TSX) bench/run.ts
	$(TSX) bench/files.ts
	$(TSX) bench/big-files.ts
	$(TSX) bench/plans.ts
	$(TSX) bench/validate.ts
	$(TSX) bench/agent.ts
	$(TSX) bench/attach.ts
	$(TSX) bench/git-context.ts
	$(TSX) bench/parallel.ts
	$(TSX) bench/mcp.ts
	$(TSX) bench/routes.ts
	$(TSX) bench/walk.ts
	$(TSX) bench/bounds.ts
	$(TSX) bench/secrets.ts

# Regenerate man pages, completions and the package.json bin map from the declarations.
man completions docs: deps
	$(TSX) scripts/gen-docs.ts

hints: build
	$(TSX) scripts/hints.ts

# A copy, not a link to this clone (npm install -g . links it): deleting the clone leaves forge working.
install: build
	rm -rf .pack && mkdir .pack
	npm pack --silent --pack-destination .pack > /dev/null
	npm install -g .pack/*.tgz
	rm -rf .pack

clean:
	rm -rf dist coverage .pack node_modules/.deps-stamp
