export { runCli } from './cli/run-cli.js';
export type { CliIo } from './cli/cli-io.js';
export { loadEvaluation } from './cli/eval-module.js';
export { openStore } from './store/open-store.js';
export { openFileStore } from './store/file-store.js';
export { openS3Store, parseS3Url, s3ConfigFromEnv } from './store/s3-store.js';
export type { S3Location } from './store/s3-store.js';
export type { InspectorStore } from './store/inspector-store.js';
export { loadSession } from './view/load-session.js';
export type {
  AgentView,
  MessageView,
  OrchestratorView,
  Problem,
  SessionView,
} from './view/session-view.js';
export {
  listSessionSummaries,
  summarizeSession,
} from './view/session-summary.js';
export type { SessionSummary } from './view/session-summary.js';
export { loadSteps } from './view/steps-view.js';
export type { StepView } from './view/steps-view.js';
export { runView } from './view/run-view.js';
export type {
  GraphShape,
  NodeExecution,
  NodeResultView,
  RunView,
} from './view/run-types.js';
export { pageData } from './render/page-data.js';
export type {
  PageConversation,
  PageData,
  PageMessage,
  PageStep,
} from './render/page-data.js';
export { PAGE_CSP, renderHtmlPage } from './render/html-page.js';
export { layoutGraph } from './render/graph-layout.js';
export type { GraphLayout } from './render/graph-layout.js';
export { serveStore } from './serve/live-server.js';
export type { LiveServer, ServeOptions } from './serve/live-server.js';
export { RunTreeLanes } from './view/run-tree-lanes.js';
export type { Lane } from './view/run-tree-lanes.js';
export { renderLanesHtml, renderLanesText } from './render/lanes-render.js';
