// Preloaded once per `bun test` run (bunfig.toml). The harness starts lazily in harness.ts.
