# Jupyter server settings for `make lab` (passed with --config): lecture notebooks and solutions are
# saved without outputs, so running them in JupyterLab never changes a tracked file (lecture_lib/lab.py).
c = get_config()  # noqa: F821  (provided by Jupyter when it loads this file)
c.ContentsManager.pre_save_hook = "lecture_lib.lab.strip_lecture_outputs"
