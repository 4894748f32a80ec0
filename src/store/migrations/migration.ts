/** One step of the schema history (../migrations.ts), written for each dialect. */
export interface Migration {
  sqlite: string;
  postgres: string;
}
