// The one error a bad configuration value raises: start-up stops with a line naming the key (docs/design.md §1).
export class ConfigError extends Error {
  constructor(readonly key: string, readonly problem: string) {
    super(`${key}: ${problem}`);
    this.name = "ConfigError";
  }
}
