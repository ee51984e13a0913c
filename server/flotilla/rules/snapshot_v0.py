"""The field names of every game's state types in version-0 snapshots (data, not code).

Version 0 is the form states were stored in before snapshots carried a schema version: the
generic codec's plain form, fields by position. These are the names of those positions, as
the state dataclasses had them then, so version-0 snapshots still load after a field is added
or dropped. Never edit an entry: a game added later has no version-0 snapshots.
"""

from __future__ import annotations

V0_LAYOUTS: dict[str, str] = {
    "flotilla.games.counter.State": ("State:config,rng,total,count;Config:seats,moves;Rng:seed,counter"),
    "flotilla.games.navegador.state.State": (
        "State:config,rng,start_player,players,buildings,colonies,tiles,cubes,knight_phase,knight_step,knights_sold,phase,turn,ledger;"
        "Config:seats,random_colours;"
        "Rng:seed,counter;"
        "PlayerState:colour,money,lisbon,ships,knights,rondel;"
        "Holding:owner,workers;"
        "Draft:chooser,picks_left;"
        "Rondel:active;"
        "PayShips:active,space,owed;"
        "Workers:active;"
        "Ships:active;"
        "Buildings:active;"
        "Sailing:active,moved,explored;"
        "Colonies:active;"
        "Consume:active,chooser,left;"
        "Sell:active;"
        "Knight:active;"
        "Displaced:active,seat,workers,origin,on_colony;"
        "Finished:;"
        "Ledger:money_paid_out,money_paid_in,workers_gained,workers_spent,ships_gained,ships_lost,cubes_added,cubes_removed"
    ),
    "flotilla.games.pirates_of_nassau.state.State": (
        "State:config,rng,round,phase,players,routes,decks,navy,navy_display,piles,display,supply,sacked,pesos_issued;"
        "Config:seats;"
        "Rng:seed,counter;"
        "PirateMove:order,turn;"
        "PirateAction:order,turn,boosts;"
        "TakingLoot:order,turn,card;"
        "AfterSmuggle:order,turn;"
        "Adjusting:order,index,fiddler;"
        "Collision:step,order,index,target;"
        "NavyChoice:order,index;"
        "NavyFight:order,index,card,boosts;"
        "NavyPenalty:order,index,card,successes;"
        "LosingCargo:order,index,remaining,notoriety_loss;"
        "Buying:order,index,passed;"
        "Burying:order,index,hold_before,face_down_before,purser_used;"
        "Cargo:pesos,gunpowder,goods,rum,hostages;"
        "HoldCheck:order,index;"
        "Finished:;"
        "Player:notoriety,dice,trail,space,hold,chest,hand,sections,fitted,face_down,bought,plundered,raids,plank,wind_held,winds_spent;"
        "PlacedDie:value,space,wind;"
        "Fitted:slot,token;"
        "Route:space,card;"
        "Deck:hidden,bottom;"
        "NavyDeck:phase1,phase2,bottom;"
        "TokenPile:hidden,discard;"
        "Supply:gunpowder,goods,rum,hostages,winds"
    ),
    "flotilla.games.port_royal.state.State": (
        "State:config,rng,start,active,turn,revealed,phase,draw_pile,discard,harbor,expeditions,players,base_allowance,end_triggered,contracts,contract_pile,spare_contracts,token_counters,time_pile,victory_pile,reshuffled;"
        "Config:seats,mode,difficulty;"
        "Rng:seed,counter;"
        "Discover:;"
        "Repel:ship;"
        "Gamester:queue;"
        "Jinx:;"
        "TaxOfficer:tax,queue;"
        "TimeCard:;"
        "Window:seat,allowance;"
        "Finished:coop_won;"
        "Player:display,coins,completed,tokens,collection;"
        "Contract:contract,slots,boxes;"
        "PrepCube:seat,box,turn"
    ),
    "flotilla.games.sail_away.state.State": (
        "State:config,rng,phase,start_player,active,turn,players,islands,island_deck,island_discard,pirate_cards,pirate_box,market,ship_deck,public_objective,objective_box,tasks,placed,extra,used_cards,claims,end_trigger,final_turns;"
        "Config:seats,max_rounds;"
        "Rng:seed,counter;"
        "PlayerState:standard,pirate,reserve_standard,reserve_pirate,posts,coins,objective,ships,launched,dealt,kept,returned;"
        "Ship:card,crates;"
        "Crate:owner,pirate;"
        "LaunchedShip:card,slot,turn,used;"
        "Island:card,spaces,post;"
        "IslandSpace:crate,cover;"
        "PirateCard:card,spaces;"
        "Resolution:island,claimant,posted,stage,index,touched,candidates;"
        "Launching:owner,ship,choose_slot;"
        "CardEffect:card"
    ),
}
