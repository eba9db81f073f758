"""The statistics screens: the overview (`screen`) and statistics by player and period (`players`)."""
