//go:build race

package tui

// raceSlowdown scales the time limits of tests that catch a slow algorithm:
// the race detector makes code several times slower (5-20x on a loaded
// 2-core machine) without telling anything about the code's speed.
const raceSlowdown = 10
