import { Migration0001Foundation } from './Migration0001Foundation.ts';
import { Migration0002Sessions } from './Migration0002Sessions.ts';
import { Migration0003Record } from './Migration0003Record.ts';
import { Migration0004Identity } from './Migration0004Identity.ts';
import { Migration0005Ledger } from './Migration0005Ledger.ts';
import { Migration0007Steward } from './Migration0007Steward.ts';
import { Migration0008People } from './Migration0008People.ts';
import { Migration0009Organism } from './Migration0009Organism.ts';
import { Migration0010Governance } from './Migration0010Governance.ts';
import { Migration0011Calibration } from './Migration0011Calibration.ts';
import { Migration0012Treasury } from './Migration0012Treasury.ts';
import { Migration0013OrganismWatch } from './Migration0013OrganismWatch.ts';
import { Migration0014GovernanceCourt } from './Migration0014GovernanceCourt.ts';
import { Migration0016OrganismMind } from './Migration0016OrganismMind.ts';
import { Migration0017OrganismRuns } from './Migration0017OrganismRuns.ts';
import { Migration0018ConfluenceThreads } from './Migration0018ConfluenceThreads.ts';
import { Migration0019ImprintAuthorSequence } from './Migration0019ImprintAuthorSequence.ts';
import { Migration0020LifecyclesEnds } from './Migration0020LifecyclesEnds.ts';
import { Migration0021FormFlashes } from './Migration0021FormFlashes.ts';
import { Migration0022RecordTallies } from './Migration0022RecordTallies.ts';
import { Migration0030DiscriminationResults } from './Migration0030DiscriminationResults.ts';
import { Migration0031QuarantineReleases } from './Migration0031QuarantineReleases.ts';

/** Every migration, in numeric order. Listed explicitly: no file globbing at start-up. (0006 was never used.) */
export const MIGRATIONS = [
  { name: 'Migration0001Foundation', class: Migration0001Foundation },
  { name: 'Migration0002Sessions', class: Migration0002Sessions },
  { name: 'Migration0003Record', class: Migration0003Record },
  { name: 'Migration0004Identity', class: Migration0004Identity },
  { name: 'Migration0005Ledger', class: Migration0005Ledger },
  { name: 'Migration0007Steward', class: Migration0007Steward },
  { name: 'Migration0008People', class: Migration0008People },
  { name: 'Migration0009Organism', class: Migration0009Organism },
  { name: 'Migration0010Governance', class: Migration0010Governance },
  { name: 'Migration0011Calibration', class: Migration0011Calibration },
  { name: 'Migration0012Treasury', class: Migration0012Treasury },
  { name: 'Migration0013OrganismWatch', class: Migration0013OrganismWatch },
  { name: 'Migration0014GovernanceCourt', class: Migration0014GovernanceCourt },
  { name: 'Migration0016OrganismMind', class: Migration0016OrganismMind },
  { name: 'Migration0017OrganismRuns', class: Migration0017OrganismRuns },
  { name: 'Migration0018ConfluenceThreads', class: Migration0018ConfluenceThreads },
  { name: 'Migration0019ImprintAuthorSequence', class: Migration0019ImprintAuthorSequence },
  { name: 'Migration0020LifecyclesEnds', class: Migration0020LifecyclesEnds },
  { name: 'Migration0021FormFlashes', class: Migration0021FormFlashes },
  { name: 'Migration0022RecordTallies', class: Migration0022RecordTallies },
  { name: 'Migration0030DiscriminationResults', class: Migration0030DiscriminationResults },
  { name: 'Migration0031QuarantineReleases', class: Migration0031QuarantineReleases },
];
