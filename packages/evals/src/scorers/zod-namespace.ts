/** The zod namespace, as built-in scorers receive it to build their expectation schemas (zod is loaded only when cases are validated). */
export type ZodNamespace = typeof import('zod').z;
