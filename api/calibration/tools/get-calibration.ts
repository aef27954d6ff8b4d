/** MCP tool civitas_calibration (GET /api/calibration): Calibration. */
import { defineTool, READS } from '../../tool.ts';
import { calibrationView } from '../views.ts';

export const getCalibration = defineTool({
  name: 'civitas_calibration',
  title: 'Calibration',
  description:
    'Calibration of graded predictions (prophecies) about civitas\'s own metrics: Brier score, log score, count and a reliability diagram (bins under 5 read "fewer than 5"), overall and for the service vs sovereigns. It does not establish accuracy for any outside decision. Same projection as GET /api/calibration.',
  inputSchema: {},
  annotations: READS,
  twin: 'GET /api/calibration',
  handler: async (_args, ctx) => calibrationView(ctx),
});
