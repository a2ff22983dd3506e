/**
 * The steps a customer reaches after the first screen (camera check, recording, sending, thank you):
 * one chunk of their own, the split point of the recording page (docs/decisions/139). The page
 * renders its first screen without them and loads them as soon as the link is read, while the
 * customer reads and consents; recording-page.tsx imports this module only through `import()`.
 */
export { CompleteStep } from './complete-step';
export { DeviceCheckStep } from './device-check-step';
export { QuestionRecorder } from './question-recorder';
export { ThankYou } from './thank-you';
