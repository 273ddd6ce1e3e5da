/** What the test server can be asked to do besides its normal tools. */
export interface TestServerBehaviour {
  /**
   * List only `echo`, `bad_schema`, whose input schema is not valid JSON Schema (`type: "banana"`),
   * and `bad_shape`, whose input schema is `{ type: "string" }` (MCP requires an object schema).
   */
  badSchema?: boolean;
}
