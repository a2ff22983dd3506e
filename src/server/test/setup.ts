import { afterEach, beforeEach, expect } from 'vitest';

/** A test fails on an unexpected console.error (React warnings, unhandled logs). */
let errors: unknown[][] = [];
const original = console.error;

beforeEach(() => {
  errors = [];
  console.error = (...args: unknown[]) => {
    errors.push(args);
    original(...args);
  };
});

afterEach(() => {
  console.error = original;
  expect(errors, 'console.error was called during the test').toEqual([]);
});
