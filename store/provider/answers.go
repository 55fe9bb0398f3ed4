package provider

// Answers the provider gives.
const (
	Confirmed = "CONFIRMED"
	Declined  = "DECLINED"
	Unknown   = "UNKNOWN"
	NotFound  = "NOT_FOUND"
	// AppliedButTimeout is a script entry: apply, then answer UNKNOWN.
	AppliedButTimeout = "APPLIED_BUT_TIMEOUT"
)

// Answer is what the provider said.
type Answer struct {
	Status  string
	Receipt string
}

// Application is one time the provider applied an effect.
type Application struct {
	OperationID string
	// Effect is the business effect (the outbox row's OperationId): two
	// applications of one effect are a duplicate, whatever their ids.
	Effect string
}

// Snapshot is what a provider remembers.
type Snapshot struct {
	Answers      map[string]Answer
	Applications []Application
	Executed     int
}
