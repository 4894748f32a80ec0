// The settings part of `mailbox-mcp --help`, printed from the table so that it lists every setting
// exactly as it is read (./settings-table.ts).
import { envName, flagName, SETTINGS, type SettingRow } from "./settings-table.ts";

const WIDTH = 100;
const INDENT = "        ";

/** Words filled into lines of at most WIDTH columns, each starting with INDENT. */
function wrap(text: string): string[] {
  const lines: string[] = [];
  let line = INDENT;
  for (const word of text.split(" ")) {
    if (line.length > INDENT.length && line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = INDENT;
    }
    line += (line.length > INDENT.length ? " " : "") + word;
  }
  return [...lines, line];
}

function entry(row: SettingRow): string[] {
  const flag = row.kind === "switch" ? `${flagName(row)}[=false]` : `${flagName(row)} ${row.arg}`;
  return [`  ${flag.padEnd(36)} ${envName(row)}`, ...wrap(`${row.help} (default: ${row.default})`)];
}

export function settingsHelp(): string {
  return [
    "Settings: each is a flag, an environment variable and a key of the settings file (TOML: the names",
    "below in lower case without MAILBOX_MCP_, e.g. send_limits = \"30/h,200/d\"; [[oauth_providers]] tables",
    "hold providers). A flag wins over the environment, which wins over the file. The data dir and the",
    "file's own path cannot come from the file. Booleans: true/false, 1/0, yes/no, on/off.",
    ...SETTINGS.flatMap(entry),
    "",
  ].join("\n");
}
