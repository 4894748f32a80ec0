// bunfig [test] preload: only registers cleanup. Servers start lazily in getHarness().
// A hook in a preload file is global: this afterAll runs once, after every test file.
// If it never runs (crash, hook timeout), dovecot.ts's process "exit" handler SIGKILLs Dovecot.
import { afterAll } from "bun:test";
import { stopHarness } from "./harness.ts";
import { stopSharedPostgres } from "./stores.ts";

afterAll(stopHarness, 15_000);
afterAll(stopSharedPostgres, 15_000);
