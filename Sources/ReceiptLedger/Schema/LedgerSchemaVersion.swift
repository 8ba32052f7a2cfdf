/// The ledger schema this build writes: ``Ledger/migrate()`` brings a database to ``latest``; a database at a
/// higher version (written by a newer build) is refused with ``LedgerError/Code/incompatibleSchema``.
public enum LedgerSchemaVersion {
    /// The newest schema version this build knows.
    public static var latest: Int { LedgerMigration.latestVersion }
}
