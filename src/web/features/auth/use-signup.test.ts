import { describe, expect, it } from 'vitest';
import { initialSignupSteps, signupStepsReducer, type TSignupSteps, type TSignupStepsAction } from './use-signup';

const run = (state: TSignupSteps, ...actions: TSignupStepsAction[]) => actions.reduce(signupStepsReducer, state);

describe("the sign-up's steps (their machine)", () => {
  it('leaves a step with its exit, then enters the next one with a fade-in that settles', () => {
    const leaving = run(initialSignupSteps(1), { type: 'leave', to: 2 });
    expect(leaving).toMatchObject({ step: 1, target: 2, exiting: true, fadingIn: false });
    const entered = run(leaving, { type: 'enter' });
    expect(entered).toMatchObject({ step: 2, target: null, exiting: false, fadingIn: true });
    expect(run(entered, { type: 'settled' })).toMatchObject({ step: 2, fadingIn: false });
  });

  it('ignores a second move while a step leaves, and a move to the step shown', () => {
    const leaving = run(initialSignupSteps(2), { type: 'leave', to: 3 });
    expect(run(leaving, { type: 'leave', to: 1 })).toBe(leaving);
    const still = initialSignupSteps(2);
    expect(run(still, { type: 'leave', to: 2 })).toBe(still);
    // Entering with nowhere to go changes nothing.
    expect(run(still, { type: 'enter' })).toBe(still);
  });

  it("shows the server's refusal until a field changes, across a step change (sent back to the refused field)", () => {
    const refused = run(initialSignupSteps(3), { type: 'failed', message: 'This company name is taken.' }, { type: 'leave', to: 2 }, { type: 'enter' });
    expect(refused).toMatchObject({ step: 2, serverError: 'This company name is taken.' });
    expect(run(refused, { type: 'cleared' }).serverError).toBeNull();
  });

  it('starts where it is told (a person back from Google starts at step 2)', () => {
    expect(initialSignupSteps(2)).toEqual({ step: 2, target: null, exiting: false, fadingIn: false, serverError: null });
  });
});
