// The MQTT contract against a real Mosquitto started by the test. A missing `mosquitto` binary FAILS this
// file (it is not skipped): the README test command installs Debian's mosquitto package.
import { describe, it } from 'vitest';
import { MOSQUITTO_MISSING, mosquittoFactory, mosquittoInstalled } from './support/brokers.ts';
import { describeMqttContract } from './support/contract.ts';

if (mosquittoInstalled()) {
  describeMqttContract(mosquittoFactory);
} else {
  describe('MQTT contract on Mosquitto', () => {
    it('needs the mosquitto binary', () => {
      throw new Error(MOSQUITTO_MISSING);
    });
  });
}
