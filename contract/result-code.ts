// The envelope's result codes (spec §7 of both documents): 1 success, 3 an invalid session; any
// other code carries a message to show. Apart from envelope.ts so that what needs only the codes
// (the error catalogue, and through it every error class) does not load the schema library.
export const ResultCode = {
  SUCCESS: 1,
  FAILURE: 0,
  INVALID_SESSION: 3,
} as const;
