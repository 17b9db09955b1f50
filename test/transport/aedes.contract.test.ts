// The MQTT contract against the embedded aedes broker (always available: it is a dependency).
import { aedesFactory } from './support/brokers.ts';
import { describeMqttContract } from './support/contract.ts';

describeMqttContract(aedesFactory);
