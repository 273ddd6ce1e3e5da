/** What the test server can be asked to do besides its normal tools. */
export interface TestServerBehaviour {
  /** Also offer `bad_schema`, whose input schema is not valid JSON Schema (`type: "banana"`). */
  badSchema?: boolean;
}
