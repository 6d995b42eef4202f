package heldout

import "testing"

// tuningSets are sets of attack variants written blind to the rules for the
// rules' authors to tune on. They are never a measure, but they must be as
// well-formed as a held-out set, so the same checks run on them; they live
// under testdata/tuning so that nobody mistakes them for one.
var tuningSets = map[string]bool{"attention-t8": true, "attention-t10": true, "attention-n10": true, "attention-t12": true, "attention-n12": true, "attention-t15": true}

func init() {
	minimumSize["attention-t8"] = struct{ malicious, benign int }{malicious: 60, benign: 15}
	invisibleFrom["attention-t8"] = true
	referencesFrom["attention-t8"] = true
	minimumSize["attention-t10"] = struct{ malicious, benign int }{malicious: 60, benign: 19}
	invisibleFrom["attention-t10"] = true
	referencesFrom["attention-t10"] = true
	minimumSize["attention-t12"] = struct{ malicious, benign int }{malicious: 80, benign: 39}
	invisibleFrom["attention-t12"] = true
	referencesFrom["attention-t12"] = true
	// attention-t15 was written by a reader of the rules, from the doors
	// they left open: attacks only, no benign side.
	minimumSize["attention-t15"] = struct{ malicious, benign int }{malicious: 22, benign: 0}
	invisibleFrom["attention-t15"] = true
	referencesFrom["attention-t15"] = true
	// attention-n10 and -n12 hold only real upstream files that look like
	// attacks (benign cases), to calibrate against false alarms; a minimum of
	// zero malicious cases marks such a set.
	minimumSize["attention-n10"] = struct{ malicious, benign int }{malicious: 0, benign: 70}
	referencesFrom["attention-n10"] = true
	minimumSize["attention-n12"] = struct{ malicious, benign int }{malicious: 0, benign: 90}
	referencesFrom["attention-n12"] = true
}

func TestTuningCorpusIsWellFormed(t *testing.T) {
	for name := range tuningSets {
		t.Run(name, func(t *testing.T) { checkCorpus(t, name) })
	}
}
