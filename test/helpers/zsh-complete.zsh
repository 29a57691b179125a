# Completes lines in a real, interactive zsh: `zsh -f zsh-complete.zsh LINE...` with FORGE_ZSH_FPATH (the completions directory) and FORGE_ZSH_CWD set.
# It starts `zsh -f -i` on a pseudo-terminal (zsh/zpty), has it source this file with --setup, and for each LINE types it, Tab and ^X, and prints what
# ^X printed: every match the completion added, one a line, then \x03 and the line as the Tab left it; the answers for several lines are joined by \x04.

if [[ $1 == --setup ]]; then
  # Inside the interactive zsh: no prompt, no listing, compinit with _forge's directory on fpath, as a user who installed it has it.
  PROMPT='' RPROMPT=''
  unsetopt beep auto_list
  fpath=("$FORGE_ZSH_FPATH" $fpath)
  autoload -Uz compinit && compinit -u -D
  cd -- "$FORGE_ZSH_CWD"
  # Every match compadd adds is kept; its calls that only look (-O, -A, -D) are not matches.
  typeset -ga __got
  compadd() {
    if (( ${@[(I)-[OAD]*]} )); then builtin compadd "$@"; return; fi
    local -a __r
    builtin compadd -O __r "$@"
    __got+=("${__r[@]}")
    builtin compadd "$@"
  }
  # Prints what the Tab did, then empties the line and the matches for the next line.
  __show() { print -rn -- $'\x02'; print -rl -- "${(@)__got}"; print -rn -- $'\x03'"$BUFFER"$'\x04'; __got=(); BUFFER= }
  zle -N __show
  bindkey '^X' __show
  bindkey '^I' complete-word
  print -- -ready-
  PROMPT=$'\x01'
  return
fi

zmodload zsh/zpty || exit 3
local out= chunk= i
zpty z zsh -f -i
zpty -w z "source ${(q)0:a} --setup"
# The prompt after -ready- says the line editor is up: typed earlier, the Tab would reach the terminal, not zle. Waits are bounded (10 s).
for i in {1..400}; do zpty -r -t z chunk && out+=$chunk; [[ $out == *-ready-*$'\x01'* ]] && break; sleep 0.025; done
[[ $out == *-ready-*$'\x01'* ]] || { print -r -- "no prompt: $out"; exit 4 }
local line answer sep=
for line in "$@"; do
  zpty -w -n z "$line"$'\t\x18'
  out=
  for i in {1..400}; do if zpty -r -t z chunk; then out+=$chunk; [[ $out == *$'\x04'* ]] && break; else sleep 0.025; fi; done
  [[ $out == *$'\x04'* ]] || { zpty -d z; print -r -- "no answer: $out"; exit 5 }
  answer=${out##*$'\x02'}
  print -rn -- "$sep${answer%$'\x04'*}"
  sep=$'\x04'
done
zpty -d z
