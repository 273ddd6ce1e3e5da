/** Caller-owned values passed through an invocation to tools and hooks (never sent to the model). */
export type InvocationState = Record<string, unknown>;
