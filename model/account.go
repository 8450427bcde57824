package model

// AccountLead begins a sentence about b with its account when the reservations of several
// accounts are listed together, where a reservation id alone does not say whose it is:
// "account 222233334444: ". "" for a listing of one account, or when the account is not known.
func AccountLead(b Block, several bool) string {
	if !several || b.Account == "" {
		return ""
	}
	return "account " + b.Account + ": "
}
