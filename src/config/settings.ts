import { z } from 'zod';

/**
 * The pieces every section of the configuration (src/config/*.ts) builds its environment variables from.
 * Messages name the variable, so every problem an operator reads says which one to fix.
 */

/** What a section's variables parse to: the output of its zod shape. */
export type Settings<Shape extends z.core.$ZodShape> = z.output<z.ZodObject<Shape>>;

export const integer = (name: string, min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, `${name} must be a whole number`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `${name} must be between ${min} and ${max}`);

export const booleanFlag = (name: string) =>
  z
    .enum(['true', 'false', '1', '0'], { message: `${name} must be true or false` })
    .transform((v) => v === 'true' || v === '1');

export const byteSize = (name: string, minKb: number, maxMb: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+(b|kb|mb)?$/i, `${name} must look like 65536, 64kb or 1mb`)
    .transform((v) => {
      const match = /^(\d+)(b|kb|mb)?$/i.exec(v)!;
      const unit = (match[2] ?? 'b').toLowerCase();
      return Number(match[1]) * (unit === 'mb' ? 1024 * 1024 : unit === 'kb' ? 1024 : 1);
    })
    .refine((n) => n >= minKb * 1024 && n <= maxMb * 1024 * 1024, `${name} must be between ${minKb}kb and ${maxMb}mb`);

export const commaList = (v: string) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);

export const DURATION = /^(\d+)(ms|s|m|h)$/;
const DURATION_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;
export const durationMs = (text: string): number => {
  const [, amount, unit] = DURATION.exec(text)!;
  return Number(amount) * DURATION_MS[unit as keyof typeof DURATION_MS];
};
