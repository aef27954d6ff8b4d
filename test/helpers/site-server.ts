/** The split deploy's site server as a child process: listens on an ephemeral port and reports it. */
import { buildSiteServer } from '../../api/site/server.ts';

const app = await buildSiteServer();
const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.send?.({ ready: address });
process.on('disconnect', () => {
  void app.close().then(() => process.exit(0));
});
