/**
 * The shape of report.json: the one source every other view (Markdown, HTML, JUnit, compare,
 * baseline) is rendered from. The types are generated from schemas/report.schema.json (the
 * document users' tooling validates against) by `npm run typegen`; this module only names them
 * for the runtime, so the schema and the code cannot drift apart.
 */
export type {
  Level,
  CheckStatus,
  Verdict,
  RuleGroup,
  HttpExchange,
  Reproducer,
  CheckResult,
  Observation,
  Summary,
  BaselineDiff,
  ExpectationsInfo,
  Report,
  ItemKind,
  ItemStatus,
  ItemResult,
  Coverage,
  Latency,
  LatencyFigures,
} from './types.generated.js';
