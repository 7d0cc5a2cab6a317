// A refusal of a request as the API answers it (api.ts's error handler): the status, what is
// wrong and, for a bad body, the field it is wrong in (docs/api.md "Conventions").
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}
