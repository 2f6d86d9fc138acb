/** SSN and document locator number after encryption: the only form in which they are stored. */
export interface SealedPersonalData {
  keyId: string;
  ssnBlindIndex: Uint8Array;
  ssnCiphertext: Uint8Array;
  documentLocatorNumberCiphertext: Uint8Array;
}

/** A business's tax id after encryption (docs/adr/0090): sealed like an SSN, under the same key ring. */
export interface SealedTaxId {
  keyId: string;
  taxIdBlindIndex: Uint8Array;
  taxIdCiphertext: Uint8Array;
}

export interface PersonalDataProtector {
  sealTaxId(binding: { environment: string; customerId: string }, normalisedTaxId: string): SealedTaxId;
  /** The HMAC blind index of a normalised tax id in an environment (its own label: never equal to an SSN's). */
  taxIdBlindIndex(environment: string, normalisedTaxId: string): Uint8Array;
  seal(
    binding: { environment: string; customerId: string },
    data: { socialSecurityNumber: string; documentLocatorNumber: number },
  ): SealedPersonalData;
  /**
   * Keyed digest (HMAC) of a request that may contain personal data, for idempotency fingerprints:
   * a plain hash of a body holding an SSN could be reversed by trying every SSN.
   */
  fingerprint(material: string): Uint8Array;
  /** The HMAC blind index of a normalised SSN in an environment: how a search finds it without decrypting. */
  blindIndex(environment: string, normalisedSsn: string): Uint8Array;
}
