#!/bin/bash
/work/exp/s30/scale/run.sh catchup
/work/exp/s30/scale/run.sh new /work/wt_edit /work/main/.venv
/work/exp/s30/scale/run.sh old /work/main /work/wt_base/.venv
/work/exp/s30/scale/run.sh new2 /work/wt_edit /work/main/.venv
