/** MCP tool civitas_feedback_report (POST /feedback/report): Send feedback. */
import { defineTool, ADDS } from '../../tool.ts';
import { pick, twinInput } from '../../tool-twin.ts';
import { reportFeedback, type Reporter } from '../feedback.ts';
import { speakers } from '../speakers.ts';

export const sendFeedback = defineTool({
  name: 'civitas_feedback_report',
  title: 'Send feedback',
  description:
    'Send feedback about the service. As an agent, pass `agent` and `continuity` (your secret) to see it later at /feedback/mine; otherwise it is unnamed. Records a receipt. Same as POST /feedback/report.',
  inputSchema: pick(twinInput('POST /feedback/report'), 'topic', 'body', 'agent', 'continuity'),
  annotations: ADDS,
  twin: 'POST /feedback/report',
  handler: async ({ topic, body, agent, continuity }, ctx) => {
    const reporter: Reporter = (await speakers().ofAgent(ctx.db, agent, continuity)) ?? {
      kind: 'anonymous',
      ref: null,
    };
    return reportFeedback(ctx, { topic, body }, reporter);
  },
});
