export { instrument } from './instrument.js';
export type { InstrumentOptions } from './options.js';
export { providerOfModel } from './options.js';
export { ATTR, EVENT, METRIC, OPERATION, SEMCONV_VERSION } from './conventions.js';
