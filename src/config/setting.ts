import { z } from 'zod';

/**
 * One setting of canvas-mcp, declared once: its schema and default, the line of
 * `--help`, the row of docs/operations.md, its flag and environment variable. The flag and the variable derive from
 * the key (`runTimeoutMs` → `--run-timeout-ms`, `CANVAS_MCP_RUN_TIMEOUT_MS`); the few exceptions say so in their row.
 */

/** The commands besides `serve` that take a setting as a flag (every command reads the environment and the file). */
export type SettingCommand = 'serve' | 'worker' | 'doctor' | 'assets';

export interface SettingRow<S extends z.ZodType = z.ZodType> {
  /** The value's schema, without its default. */
  schema: S;
  /** The default; none: the setting is unset unless given. */
  default?: z.input<S>;
  /** The line `--help` shows. */
  help: string;
  /** What docs/operations.md says in its table (the help when absent). */
  docs?: string;
  /** The default as docs/operations.md shows it, when the value itself says too little (`http://host:port`). */
  shownDefault?: string;
  /**
   * The flag: derived from the key unless given; `false` for a setting read from the environment only (secrets, and
   * diagnostics). `switch` settings are flags without a value (`--enable-hidden-tools`).
   */
  flag?: string | false;
  /** The placeholder of the flag's value in `--help` (`<ms>`); none for a switch. */
  arg?: string;
  switch?: boolean;
  /** The environment variable: derived from the key unless given. */
  env?: string;
  /** A secret is never echoed in an error, refused in the settings file, and environment-only unless it has a flag. */
  secret?: boolean;
  /** Commands besides `serve` that take the flag too. */
  commands?: readonly SettingCommand[];
}

export const kebabCase = (key: string) => key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
const snakeCase = (key: string) => key.replace(/[A-Z]/g, (letter) => `_${letter}`).toUpperCase();

export const flagOf = (key: string, row: SettingRow): string | null =>
  row.flag === false ? null : (row.flag ?? `--${kebabCase(key)}`);

export const envOf = (key: string, row: SettingRow): string => row.env ?? `CANVAS_MCP_${snakeCase(key)}`;

/** The row's schema with its default (parsed like a given value, so a default is checked too), or made optional. */
export function schemaOf(row: SettingRow): z.ZodType {
  return row.default === undefined ? row.schema.optional() : row.schema.prefault(row.default as never);
}

/**
 * Declares a row: its default is checked against the schema's input, and the row keeps its own type, so a setting
 * with a default is typed as always present in the configuration.
 */
export const setting = <S extends z.ZodType, const R extends SettingRow<S>>(row: R & { schema: S }): R => row;

/** The schema a row stands for in the configuration object: with its default, or optional. */
export type SchemaOfRow<R extends SettingRow> = R extends { default: unknown }
  ? z.ZodPrefault<R['schema']>
  : z.ZodOptional<R['schema']>;

// The value kinds settings share.
export const Bool = z.union([
  z.boolean(),
  z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1'),
]);
export const Int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
export const HttpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });
export const PostgresUrl = z
  .string()
  .regex(/^postgres(ql)?:\/\//, { error: 'must be a postgres:// or postgresql:// URL' });
export const OriginList = z.union([
  z.array(z.string()),
  z.string().transform((value) =>
    value
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
  ),
]);
